export { startGateway, GATEWAY_MIGRATIONS } from "./service";
export { gatewayConfigSchema } from "./config";
