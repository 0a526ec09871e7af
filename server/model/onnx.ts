/**
 * The ONNX graph of a static embedding model: look each token up in an int8 table and scale it by
 * its row's factor. Inputs and output are named as a BERT encoder's, so transformers.js's
 * `feature-extraction` pipeline runs it as it runs any sentence encoder.
 *
 *   input_ids [batch, sequence] int64 ─┬─ Gather(table int8 [V, D]) ─ Cast(float) ─┐
 *                                      └─ Gather(scales float [V, 1]) ─────────────┴─ Mul → last_hidden_state [batch,
 * sequence, D]
 *
 * `attention_mask` is an input the graph does not use (the pipeline's mean pooling applies it).
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export function buildGatherGraph(table: Int8Array, scales: Float32Array, vocab: number, dims: number): Uint8Array {
  const dim = (name: string | number) => (typeof name === 'number' ? { dimValue: name } : { dimParam: name });
  const tensorType = (elemType: number, shape: (string | number)[]) => ({
    tensorType: { elemType, shape: { dim: shape.map(dim) } },
  });
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT8 = onnx.TensorProto.DataType.INT8;
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'mnemoscope',
    producerVersion: '1',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'static_embeddings',
      input: [
        { name: 'input_ids', type: tensorType(INT64, ['batch_size', 'sequence_length']) },
        { name: 'attention_mask', type: tensorType(INT64, ['batch_size', 'sequence_length']) },
      ],
      output: [{ name: 'last_hidden_state', type: tensorType(FLOAT, ['batch_size', 'sequence_length', dims]) }],
      initializer: [
        {
          name: 'table',
          dataType: INT8,
          dims: [vocab, dims],
          rawData: new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
        },
        {
          name: 'scales',
          dataType: FLOAT,
          dims: [vocab, 1],
          rawData: new Uint8Array(scales.buffer, scales.byteOffset, scales.byteLength),
        },
      ],
      node: [
        {
          name: 'lookup',
          opType: 'Gather',
          input: ['table', 'input_ids'],
          output: ['rows_int8'],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
        {
          name: 'widen',
          opType: 'Cast',
          input: ['rows_int8'],
          output: ['rows'],
          attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }],
        },
        {
          name: 'lookup_scale',
          opType: 'Gather',
          input: ['scales', 'input_ids'],
          output: ['row_scales'],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
        { name: 'scale', opType: 'Mul', input: ['rows', 'row_scales'], output: ['last_hidden_state'] },
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Exact k-nearest-neighbour search as an ONNX graph, for the curator: the cosines of every query
 * against every entry (unit vectors, so a matrix product) and the top k of each row, computed by
 * onnxruntime's native kernels instead of a JavaScript loop.
 *
 *   queries [M, D] ─ MatMul(Transpose(entries [N, D])) ─ TopK(k) → values [M, k], indices [M, k]
 */
export function buildKnnGraph(): Uint8Array {
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const t = (elemType: number, shape: string[]) => ({
    tensorType: { elemType, shape: { dim: shape.map((dimParam) => ({ dimParam })) } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'mnemoscope',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'knn',
      input: [
        { name: 'queries', type: t(FLOAT, ['m', 'd']) },
        { name: 'entries', type: t(FLOAT, ['n', 'd']) },
        { name: 'k', type: { tensorType: { elemType: INT64, shape: { dim: [{ dimValue: 1 }] } } } },
      ],
      output: [
        { name: 'values', type: t(FLOAT, ['m', 'k']) },
        { name: 'indices', type: t(INT64, ['m', 'k']) },
      ],
      node: [
        {
          name: 'transpose',
          opType: 'Transpose',
          input: ['entries'],
          output: ['entries_t'],
          attribute: [{ name: 'perm', type: onnx.AttributeProto.AttributeType.INTS, ints: [1, 0] }],
        },
        { name: 'cosines', opType: 'MatMul', input: ['queries', 'entries_t'], output: ['scores'] },
        {
          name: 'top',
          opType: 'TopK',
          input: ['scores', 'k'],
          output: ['values', 'indices'],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }],
        },
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
