/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite and onnxruntime-node (under transformers.js) load WASM, data and native files from node_modules:
  // not bundled.
  serverExternalPackages: ['@electric-sql/pglite', '@huggingface/transformers', 'onnxruntime-node'],
  poweredByHeader: false,
  typedRoutes: false,
  // Pages renamed so that each feature has one name; old links and bookmarks keep working (query kept).
  async redirects() {
    return [{ source: '/curation/memory', destination: '/curation/entries', permanent: true }];
  },
};

export default nextConfig;
