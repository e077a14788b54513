import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".data/**",
      ".tmp/**",
      "**/migrations/**",
      "loadtests/results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
    },
  },
  {
    // Tests read arbitrary JSON answers; asserting on them is the point, typing them is noise.
    files: ["**/*.test.ts", "**/*.test.tsx", "**/e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.mjs", "**/*.cjs", "**/*.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
