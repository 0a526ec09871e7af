import { AuditLog } from '@/components/curation/audit';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Audit log · Curation' };

export default function Page() {
  return <AuditLog />;
}
