// The same UI flows as e2e/replay.e2e.ts, on PostgreSQL with the demo.
process.env.MNEMOSCOPE_E2E_DB = 'postgres';
await import('../replay.e2e');
export {};
