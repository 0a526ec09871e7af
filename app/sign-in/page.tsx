export const metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

const waitText = (s: number) => (s >= 90 ? `${Math.ceil(s / 60)} minutes` : `${s || 60} seconds`);

const ERRORS: Record<string, (wait: number) => string> = {
  invalid: () => 'That username and password do not match.',
  slow: (wait) => `Too many failed attempts: try again in ${waitText(wait)}.`,
  unavailable: () => 'The database cannot be reached just now: try again in a moment.',
};

/** A plain form (works before any script loads) posting to /api/auth/sign-in. */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string; wait?: string; user?: string }>;
}) {
  const { next, error, wait, user } = await searchParams;
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '70vh' }}>
      <form
        method="post"
        action="/api/auth/sign-in"
        className="panel panel-body"
        style={{ width: 340, display: 'grid', gap: 10 }}
        data-testid="sign-in"
      >
        <h1 style={{ margin: 0 }}>Sign in to Mnemoscope</h1>
        {error && Object.hasOwn(ERRORS, error) ? (
          <div className="banner danger" role="alert">
            {ERRORS[error]!(Math.max(0, Math.min(3600, Number(wait) || 0)))}
          </div>
        ) : null}
        <label>
          Username
          <input
            className="input"
            name="username"
            autoComplete="username"
            required
            defaultValue={user?.slice(0, 64)}
            autoFocus={!user}
            style={{ width: '100%' }}
          />
        </label>
        <label>
          Password
          <input
            className="input"
            name="password"
            type="password"
            autoComplete="current-password"
            autoFocus={!!user}
            required
            style={{ width: '100%' }}
          />
        </label>
        <input type="hidden" name="next" value={next ?? '/sessions'} />
        <button className="btn btn-primary" type="submit">
          Sign in
        </button>
      </form>
    </div>
  );
}
