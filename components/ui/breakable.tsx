import { Fragment } from 'react';

/**
 * An identifier that may wrap where it has a joint (after each "_", "/", "." and "→": "foundry_|add_|tool"), never
 * inside a part: a narrow cell breaks it into readable pieces instead of at any letter. Text, never HTML.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[_./→])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i ? <wbr /> : null}
          {p}
        </Fragment>
      ))}
    </>
  );
}
