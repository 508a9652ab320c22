// src/main.js
const [user] = await (await fetch('/admin/api/v1.2/users?limit=1')).json()
document.querySelector('#username').textContent = user.username
