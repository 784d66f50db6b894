/** What the app may use of the messages from the RIS (docs/integration/hl7.md#from-the-ris). */
export { createHl7Inbound, type Hl7InboundHandler } from './inbound-service';
export { createInboundRepository, type InboundRow } from './inbound-repository';
export { risInboundModule } from './module';
