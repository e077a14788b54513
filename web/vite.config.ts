import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// Public pages are pre-rendered by scripts/build.mjs; this config serves both the client and the SSR build.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Keeps the CSP free of inline code: no asset is inlined as a data: URL script.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { "/api": "http://127.0.0.1:3000", "/ws": { target: "ws://127.0.0.1:3000", ws: true } },
  },
});
