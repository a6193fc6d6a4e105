import { petstoreMock } from 'petstore-mock/vite';
import { defineConfig } from 'vite';

// In `vite` (dev), the pet store mock starts on a free port with the dev server and stops with it; the app
// calls /v1 (the API) and /__mock (its admin endpoints) on its own origin, and the dev server proxies them
// to the mock. A build, `vite preview` and vitest (which reads this file too) start no mock.
export default defineConfig({ plugins: [petstoreMock()] });

// For this project's tests, which check the plugin as this file uses it.
export { petstoreMock };
