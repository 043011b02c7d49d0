export default function UserProfilePage() {
  return <h1 className="p-6 text-2xl font-bold">My Profile</h1>;
}
