export const metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

const ERRORS: Record<string, string> = {
  invalid: 'That username and password do not match.',
  slow: 'Too many attempts from here; wait a minute.',
};

/** A plain form (works before any script loads) posting to /api/auth/sign-in. */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string }>;
}) {
  const { next, error } = await searchParams;
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
        {error && ERRORS[error] ? (
          <div className="banner danger" role="alert">
            {ERRORS[error]}
          </div>
        ) : null}
        <label>
          Username
          <input
            className="input"
            name="username"
            autoComplete="username"
            required
            autoFocus
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
