// The same flow as e2e/decisions.e2e.ts, on PostgreSQL with the demo: the wait ends by NOTIFY from the server.
process.env.MNEMOSCOPE_E2E_DB = 'postgres';
await import('../decisions.e2e');
export {};
