import { Outlet } from 'react-router';

export default function BusinessLayout() {
  return <Outlet />;
}
