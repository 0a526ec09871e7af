import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/app-shell';
import { THEME_KEY } from '@/components/shell/theme-store';
import { NARROW, SHELL_KEY } from '@/components/shell/shell-store';
import { HOLD_FRAGMENT } from '@/components/shell/held-fragment';
import { TrpcProvider } from '@/components/trpc/provider';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Mnemoscope', template: '%s · Mnemoscope' },
  description: 'A visual inspector for AI-agent memory',
};

// Sets the theme and the sidebar before first paint from the persisted choices: a dark-mode user never sees a white
// flash, and a collapsed sidebar never opens for a moment.
const themeScript =
  `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(THEME_KEY)})||'{}');` +
  "var t=(s.state&&s.state.theme)||'system';" +
  "var d=t==='dark'||(t==='system'&&matchMedia('(prefers-color-scheme: dark)').matches);" +
  "document.documentElement.dataset.theme=d?'dark':'light';" +
  `var h=JSON.parse(localStorage.getItem(${JSON.stringify(SHELL_KEY)})||'{}');` +
  "var b=(h.state&&h.state.sidebar)||'auto';" +
  `if(b==='closed'||(b==='auto'&&matchMedia('(max-width: ${NARROW}px)').matches))` +
  "document.documentElement.dataset.rail=''}catch(e){}" +
  // The address's fragment, off the address until Next.js has started (held-fragment.ts says why).
  `try{${HOLD_FRAGMENT}}catch(e){}`;

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The per-request CSP nonce from proxy.ts: the one inline script carries it (reading headers also
  // makes every page dynamic, which nonces need).
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        <TrpcProvider>
          <AppShell>{children}</AppShell>
        </TrpcProvider>
      </body>
    </html>
  );
}
