import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

// The architecture's walls: a service (its source and its tests) never imports another service;
// what needs more than one service is a system test (tests/system/). tests/walls.test.ts checks
// the same, dynamic import() included.
const SERVICES = ["gateway", "leads", "settings", "tracking", "mailer", "conversions"];
const walls = SERVICES.map((name) => ({
  files: [`services/${name}/**/*.{ts,tsx,mjs,js}`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: SERVICES.filter((other) => other !== name).map((other) => ({
          group: [`@lease/${other}`, `@lease/${other}/*`, `**/services/${other}/**`, `**/${other}/src/**`],
          message: `services/${name} may not import the ${other} service: ask it over HTTP or hear its events; a test that needs both belongs in tests/system/.`,
        })),
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".data/**",
      "**/.tmp/**",
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
  ...walls,
  {
    files: ["**/*.mjs", "**/*.cjs", "**/*.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
