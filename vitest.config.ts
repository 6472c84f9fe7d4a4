import { defineConfig } from 'vitest/config';

/** Unit tests of the page's pure logic (tests/unit), in Node: no DOM, no wasm. */
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
  },
});
