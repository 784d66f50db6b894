/** MSH-5 of the messages to the demo RIS's HL7 listener (hl7-receiver.ts): how the start banner tells it from a real RIS. */
export const DEMO_HL7_RIS_APPLICATION = 'DEMO-RIS';
