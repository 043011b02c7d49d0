import { Outlet } from 'react-router';

export default function UserLayout() {
  return <Outlet />;
}
