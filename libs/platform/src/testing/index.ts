// The test kit (`@lease/platform/testing`): every test file gets a database and a Redis prefix of its
// own on the real servers, starts a service in-process on port 0 with the service's own factory,
// polls with one waitFor, and stands SendGrid in with one local receiver (and builds what its
// webhooks post). The platform imports no
// service; starting the whole stack is tests/system/stack.ts (in-process) or scripts/lib/stack.mjs
// (the built processes, for the browser tests).
export * from "./env";
export { startTcpProxy } from "./tcp-proxy";
export { waitFor } from "./wait-for";
export { authenticatorCode } from "./authenticator";
export { startTestService, type TestService } from "./service";
export { startSendgridReceiver, type ReceivedMail, type SendgridReceiver } from "./sendgrid-receiver";
export {
  eventWebhookKeys,
  signEventBatch,
  type SignedEventBatch,
  inboundParseForm,
  inboundParseRawForm,
  mimeMessage,
  type InboundAttachmentSpec,
  type InboundParseSpec,
  type WebhookPost,
} from "./sendgrid-webhooks";
export {
  startAdPlatformReceiver,
  type AdPlatform,
  type AdPlatformReceiver,
  type ReceivedConversion,
} from "./ad-platform-receiver";
export {
  startGoogleReceiver,
  GOOGLE_TEST_SCOPE,
  type GoogleReceiver,
  type GoogleReceiverOptions,
  type ReceivedGoogleEvent,
} from "./google-receiver";
