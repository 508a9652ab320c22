// app/layout.jsx
import { MockProvider } from './mock-provider.jsx'

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        <MockProvider>{children}</MockProvider>
      </body>
    </html>
  )
}
