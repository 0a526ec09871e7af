// The same UI flow as e2e/retrievals.e2e.ts, on PostgreSQL with the demo.
process.env.MNEMOSCOPE_E2E_DB = 'postgres';
await import('../retrievals.e2e');
export {};
