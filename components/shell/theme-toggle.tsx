'use client';

import { useEffect } from 'react';
import { applyTheme, useThemeStore, type ThemeChoice } from './theme-store';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

export function ThemeToggle() {
  const { theme, setTheme } = useThemeStore();
  // Applying the theme is a side effect on the document, not derived state.
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system') return;
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const on = () => applyTheme('system');
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [theme]);
  return (
    <button
      type="button"
      className="btn"
      onClick={() => setTheme(NEXT[theme])}
      title="Switch theme"
      data-testid="theme-toggle"
    >
      {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'} {LABEL[theme]}
    </button>
  );
}
