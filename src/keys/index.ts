export {
  type ApiKeyInfo,
  type ApiKeys,
  type CreatedKey,
  type CreateKeyOptions,
  createApiKeys,
  hashKey,
  parseRate,
} from "./api-keys.js";
export { createSpendLedger, type SpendLedger, utcDay } from "./spend-ledger.js";
