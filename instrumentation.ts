/**
 * Runs once when the server starts: migrate, provision, load the demo on a first start. A start-up that
 * fails ends the process with the reason and a non-zero status: a half-alive server that answers 500 to
 * everything would keep receiving traffic from a load balancer.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { ready } = await import('./server/bootstrap');
    const { errorReason } = await import('./server/log');
    try {
      await ready();
    } catch (e) {
      // The reason only: a failed query's message holds the values it was given.
      console.error(`[mnemoscope] start-up failed, exiting: ${errorReason(e)}`);
      process.exit(1);
    }
  }
}
