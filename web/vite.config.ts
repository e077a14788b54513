import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// Public pages are pre-rendered by scripts/build.mjs; this config serves both the client and the SSR build.
// Two documents: index.html, the public pages' template (entry-site.tsx: islands only), and app.html,
// the admin app's shell (entry-app.tsx).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Keeps the CSP free of inline code: no asset is inlined as a data: URL script.
    assetsInlineLimit: 0,
    // Every browser the site supports preloads modules itself.
    modulePreload: { polyfill: false },
    // One stylesheet, which comes with every document (inline in the public pages, linked in
    // app.html). Split per chunk, each lazy chunk would add it again as it loads, and the browser
    // restyled the whole page after its islands had loaded.
    cssCodeSplit: false,
    rollupOptions: {
      input: { site: `${import.meta.dirname}/index.html`, app: `${import.meta.dirname}/app.html` },
      output: {
        // The code both apps share is named after its first module, the stylesheet: "shared" says more.
        chunkFileNames: (chunk) => `assets/${chunk.name === "styles" ? "shared" : "[name]"}-[hash].js`,
        // React itself in a chunk of that name, which both apps load (the rest is split by use).
        manualChunks: (id) =>
          /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id) ? "react" : undefined,
      },
    },
  },
  server: {
    proxy: { "/api": "http://127.0.0.1:3000", "/ws": { target: "ws://127.0.0.1:3000", ws: true } },
  },
});
