/** Runs once when the server starts: migrate, provision, load the demo on a first start. */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { ready } = await import('./server/bootstrap');
    await ready();
  }
}
