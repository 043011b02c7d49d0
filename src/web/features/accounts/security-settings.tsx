import type { ReactNode } from 'react';
import { Icon, icons } from '../../components/ui/icon';
import { ChangePasswordRow } from './change-password-row';
import { SignedInDevices } from './signed-in-devices';

/** A row the page supplies: drawn with the row's icon, or as it is. */
type Row = ReactNode | ((icon: ReactNode) => ReactNode);

const draw = (row: Row, icon: ReactNode) => (typeof row === 'function' ? row(icon) : row);

/**
 * The Security tab (seed §2): the transaction PIN (businesses only: `pinRow`; users have no wallet, so no
 * PIN), Change Password, Delete My Account (`deleteRow`, the page's), then the signed-in devices.
 */
export function SecuritySettings({ pinRow, deleteRow }: { pinRow?: Row; deleteRow?: Row } = {}) {
  return (
    <>
      <div className="rounded-2xl border border-slate-200 bg-white shadow-sm">
        <ul className="divide-y divide-slate-100">
          {pinRow ? <li>{draw(pinRow, <Icon path={icons.key} />)}</li> : null}
          <li>
            <ChangePasswordRow icon={<Icon path={icons.lock} />} />
          </li>
          {deleteRow ? <li>{draw(deleteRow, <Icon path={icons.trash} />)}</li> : null}
        </ul>
      </div>
      <SignedInDevices />
    </>
  );
}
