export * from "./channels";
