// The same UI flow as e2e/read-as.e2e.ts, on PostgreSQL with the demo.
process.env.MNEMOSCOPE_E2E_DB = 'postgres';
await import('../read-as.e2e');
export {};
