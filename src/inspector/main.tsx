import { render } from 'preact'
import { App } from './app.js'
import './inspector.css'

/** The page's one element: `data-control` says where the control API is (`/__mock`). */
const root = document.getElementById('app')!
render(<App control={root.dataset.control ?? '/__mock'} />, root)
