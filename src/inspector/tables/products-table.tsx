import { useEffect, useRef, useState } from 'preact/hooks'
import { useAction } from '../action.js'
import type { Api } from '../api.js'
import { Outcome } from '../outcome.js'
import { DataTable } from './data-table.js'

interface Product {
  id: string
  name: string
  price: number
  stock: number
}

/**
 * Area B's products with their price and stock editable in place; Save (or
 * Enter) sends `PUT /core/products/{id}`, so Area B's validation and errors
 * are what you see. `readOnly` (an earlier world): shown, not editable.
 */
export function ProductsTable({ api, products, core, readOnly = false }: { api: Api; products: Product[]; core: string; readOnly?: boolean }) {
  const [act, outcome] = useAction()
  if (readOnly)
    return (
      <section aria-label="Products">
        <DataTable caption="Products" columns={['Id', 'Name', 'Price', 'Stock']}>
          {products.map((product) => (
            <tr key={product.id}>
              <td>
                <code>{product.id}</code>
              </td>
              <th scope="row">{product.name}</th>
              <td class="number">{product.price}</td>
              <td class="number">{product.stock}</td>
            </tr>
          ))}
        </DataTable>
      </section>
    )
  return (
    <section aria-label="Products">
      <Outcome state={outcome} />
      <DataTable caption="Products" columns={['Id', 'Name', 'Price', 'Stock', 'Save']}>
        {products.map((product) => (
          <ProductRow
            key={product.id}
            product={product}
            busy={outcome.busy}
            save={(body) => act(() => api.send('PUT', `${core}/products/${encodeURIComponent(product.id)}`, body), `Saved ${product.name}.`)}
          />
        ))}
      </DataTable>
    </section>
  )
}

function ProductRow({ product, busy, save }: { product: Product; busy: boolean; save: (body: { price: number; stock: number }) => Promise<boolean> }) {
  const [price, setPrice] = useState(String(product.price))
  const [stock, setStock] = useState(String(product.stock))
  const shown = useRef({ price: product.price, stock: product.stock })
  // The world changed (this page, another client, a reset): show what it holds now,
  // unless you are typing another value there.
  useEffect(() => {
    const before = shown.current
    shown.current = { price: product.price, stock: product.stock }
    setPrice((typed) => (typed === String(before.price) ? String(product.price) : typed))
    setStock((typed) => (typed === String(before.stock) ? String(product.stock) : typed))
  }, [product.price, product.stock])
  const form = `product-${product.id}`
  const submit = (event: Event) => {
    event.preventDefault()
    // Sent as typed (a number when it reads as one): the API, not the page, says what is wrong.
    const value = (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text)
    void save({ price: value(price) as number, stock: value(stock) as number })
  }
  const changed = price !== String(product.price) || stock !== String(product.stock)
  return (
    <tr>
      <td>
        <code>{product.id}</code>
      </td>
      <th scope="row">{product.name}</th>
      <td>
        <input
          form={form}
          class="number"
          type="text"
          inputMode="decimal"
          aria-label={`Price of ${product.name}`}
          value={price}
          onInput={(event) => setPrice(event.currentTarget.value)}
        />
      </td>
      <td>
        <input
          form={form}
          class="number"
          type="text"
          inputMode="numeric"
          aria-label={`Stock of ${product.name}`}
          value={stock}
          onInput={(event) => setStock(event.currentTarget.value)}
        />
      </td>
      <td>
        <form id={form} onSubmit={submit}>
          <button type="submit" aria-label={`Save ${product.name}`} disabled={busy || !changed}>
            Save
          </button>
        </form>
      </td>
    </tr>
  )
}
