export * from "./queues";
export * from "./catalog";
