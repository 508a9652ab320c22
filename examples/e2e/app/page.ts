/** A person as the admin API lists them. */
export interface Person {
  username: string
  email: string
  status: string
}

/** What the server rendered: the people, or why it could not load them. */
export type Directory = { people: Person[]; total: number } | { error: string }

/**
 * The whole page, rendered on the server from what the app's server fetched;
 * its script then loads more in the browser, straight from the API.
 */
export function renderPage(options: { apiUrl: string; directory: Directory; formError?: string }): string {
  const { apiUrl, directory, formError } = options
  const server =
    'error' in directory
      ? `<p id="server-error" role="alert">${escape(directory.error)}</p>`
      : `<p id="server-total">${count(directory.total)}</p>
    <ul id="server-users">${directory.people.map((person) => `<li data-username="${escape(person.username)}">${escape(person.username)} (${escape(person.email)}, ${escape(person.status)})</li>`).join('')}</ul>`
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Team directory</title>
  <meta name="api-url" content="${escape(apiUrl)}">
</head>
<body>
  <h1>Team directory</h1>
  <section aria-labelledby="server-heading">
    <h2 id="server-heading">Rendered on the server</h2>
    ${server}
  </section>
  <form id="add-person" method="post" action="/people">
    <h2>Add a person</h2>
    <label>Username <input name="username" required></label>
    <label>Email <input name="email" type="email" required></label>
    <label>Password <input name="password" type="password" required></label>
    <button type="submit">Add</button>
    ${formError ? `<p id="form-error" role="alert">${escape(formError)}</p>` : ''}
  </form>
  <section aria-labelledby="browser-heading">
    <h2 id="browser-heading">Loaded in the browser</h2>
    <p id="browser-status">Loading…</p>
    <ul id="browser-users"></ul>
  </section>
  <section aria-labelledby="notes-heading">
    <h2 id="notes-heading">Team notes</h2>
    <form id="sign-in">
      <label>Sign-in name <input name="username" required></label>
      <label>Sign-in password <input name="password" type="password" required></label>
      <button type="submit">Sign in</button>
    </form>
    <p id="session">Not signed in</p>
    <label>Note <textarea id="note"></textarea></label>
    <button type="button" id="save-note">Save note</button>
    <p id="note-status" role="status"></p>
  </section>
  <script type="module">${BROWSER_SCRIPT}</script>
</body>
</html>`
}

/** The page's own script: plain browser JavaScript, calling the API across origins (CORS). */
const BROWSER_SCRIPT = `
const api = document.querySelector('meta[name="api-url"]').content
const $ = (id) => document.getElementById(id)
let token = null

async function loadPeople() {
  try {
    const response = await fetch(api + '/core/users?limit=100')
    if (!response.ok) throw new Error('the core API answered ' + response.status)
    const people = await response.json()
    $('browser-users').replaceChildren(...people.map((person) => {
      const item = document.createElement('li')
      item.dataset.username = person.username
      item.textContent = person.username + ' (' + person.email + ')'
      return item
    }))
    $('browser-status').textContent = people.length + (people.length === 1 ? ' person' : ' people') + ' loaded in the browser'
  } catch (error) {
    $('browser-status').setAttribute('role', 'alert')
    $('browser-status').textContent = 'Could not load people: ' + error.message
  }
}

$('sign-in').addEventListener('submit', async (event) => {
  event.preventDefault()
  const form = new FormData(event.target)
  const response = await fetch(api + '/general/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: form.get('username'), password: form.get('password') }),
  })
  const body = await response.json()
  token = response.ok ? body.token : null
  $('session').textContent = response.ok ? 'Signed in as ' + form.get('username') : 'Sign-in failed: ' + body.message
})

$('save-note').addEventListener('click', async () => {
  const response = await fetch(api + '/general/resources/1', {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: 'Bearer ' + token } : {}) },
    body: JSON.stringify({ data: { title: 'Team notes', text: $('note').value } }),
  })
  const body = await response.json()
  if (response.ok) $('note-status').textContent = 'Saved'
  else if (body.error === 'token_expired') {
    token = null
    $('session').textContent = 'Not signed in'
    $('note-status').textContent = 'Your session expired: sign in again.'
  } else $('note-status').textContent = 'Not saved: ' + body.message
})

loadPeople()
`

function count(total: number): string {
  return `${total} ${total === 1 ? 'person' : 'people'}`
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
