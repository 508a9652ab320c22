// app/api/user/route.js
export async function GET() {
  const [user] = await (await fetch(`${process.env.API_URL}/admin/api/v1.2/users?limit=1`)).json()
  return Response.json({ username: user.username })
}
