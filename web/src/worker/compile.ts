// A wasm module of this deployment fetched (same origin) and compiled, once per worker that asks.

/** The module at `url`, compiled as it downloads where the server names the type (as
 * wasm-bindgen's loader does); `what` names it in the error when it cannot be fetched. */
export function compiledFrom(url: string, what: string): Promise<WebAssembly.Module> {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${what} could not be loaded (${response.status} ${response.statusText}).`);
    return response.headers.get('Content-Type')?.startsWith('application/wasm')
      ? WebAssembly.compileStreaming(response)
      : response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
  });
}
