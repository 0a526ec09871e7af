import { Panel } from '@/components/ui/panel';

/** A settings panel that only admins use, as anyone else sees it: what it is for and who can. */
export function AdminsOnly({ title, what, role }: { title: string; what: string; role: string | null }) {
  return (
    <Panel as="div" heading title={title} testId={`${title.toLowerCase().replace(/ /g, '-')}-admins-only`}>
      <p className="muted" style={{ margin: 0 }}>
        Admins {what} here; you are {role === 'admin' ? 'an' : 'a'} {role ?? 'member'} of this project.
      </p>
    </Panel>
  );
}
