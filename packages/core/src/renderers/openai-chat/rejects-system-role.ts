// Models that refuse a leading "system" message and want "developer" instead (OAI-019). Only o1-mini
// failed when every OpenAI chat model was tested (microsoft/agent-framework#1077); newer reasoning
// models accept both. Dated snapshots ("o1-mini-2024-09-12") count as the model.
const REJECTS_SYSTEM_ROLE = /^o1-mini(?:-|$)/;

export function rejectsSystemRole(model: string | undefined): boolean {
  return model !== undefined && REJECTS_SYSTEM_ROLE.test(model);
}
