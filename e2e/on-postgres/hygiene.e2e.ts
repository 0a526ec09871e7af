// The same UI flows as e2e/hygiene.e2e.ts, on PostgreSQL with the demo.
process.env.MNEMOSCOPE_E2E_DB = 'postgres';
await import('../hygiene.e2e');
export {};
