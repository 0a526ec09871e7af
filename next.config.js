/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite and onnxruntime-node (under transformers.js) load WASM, data and native files from node_modules: not bundled.
  serverExternalPackages: ['@electric-sql/pglite', '@huggingface/transformers', 'onnxruntime-node'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
