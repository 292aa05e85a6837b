import type { AnyProcessRequest, ProcessResult, StatusCode } from "../../generated/partner/index.js";
import { isWellFormedId } from "./ids.js";
import type { PartnerState, UserState } from "./state.js";

/**
 * process: a one-step approval. ProcessSubmitRequest opens an approval on a record (ALREADY_IN_PROCESS when one is
 * pending) assigned to nextApproverIds, or to the submitter; ProcessWorkitemRequest with action Approve, Reject or
 * Removed decides it, and only an assigned approver may (INSUFFICIENT_ACCESS_OR_READONLY otherwise).
 */
export interface ApprovalInstance {
  readonly instanceId: string;
  readonly workitemId: string;
  readonly targetId: string;
  readonly approverIds: readonly string[];
  status: "Pending" | "Approved" | "Rejected" | "Removed";
  readonly comments: (string | null)[];
}

const ACTIONS = { Approve: "Approved", Reject: "Rejected", Removed: "Removed" } as const;

const failure = (statusCode: StatusCode, message: string, entityId: string | null = null): ProcessResult => ({
  success: false, entityId, instanceId: null, instanceStatus: null, errors: [{ statusCode, message, fields: [] }],
});

function one(state: PartnerState, user: UserState, action: AnyProcessRequest): ProcessResult {
  if (action.$type === "ProcessSubmitRequest") {
    const target = isWellFormedId(action.objectId) ? state.store.get(action.objectId) : undefined;
    if (!target || target.deletedAt !== undefined) return failure("INVALID_CROSS_REFERENCE_KEY", `no record with id ${action.objectId}`, action.objectId);
    if (state.approvals.some((a) => a.targetId === target.id && a.status === "Pending")) {
      return failure("ALREADY_IN_PROCESS", "the record is already pending approval", target.id);
    }
    const approvers = (action.nextApproverIds ?? []).filter((id): id is string => id !== null);
    const unknown = approvers.find((id) => !state.user(id));
    if (unknown) return failure("INVALID_CROSS_REFERENCE_KEY", `no user with id ${unknown}`, target.id);
    const { instanceId, workitemId } = state.newApprovalIds();
    const approverIds = approvers.length > 0 ? approvers.map((id) => state.user(id)!.id) : [user.id];
    state.approvals.push({ instanceId, workitemId, targetId: target.id, approverIds, status: "Pending", comments: [action.comments] });
    return { success: true, actorIds: approverIds, entityId: target.id, instanceId, instanceStatus: "Pending", newWorkitemIds: [workitemId] };
  }
  if (action.$type === "ProcessWorkitemRequest") {
    const instance = state.approvals.find((a) => a.workitemId.slice(0, 15) === action.workitemId.slice(0, 15) && a.status === "Pending");
    if (!instance) return failure("INVALID_CROSS_REFERENCE_KEY", `no pending work item ${action.workitemId}`);
    const next = ACTIONS[action.action as keyof typeof ACTIONS];
    if (!next) return failure("INVALID_OPERATION", `unknown action ${action.action} (Approve, Reject or Removed)`, instance.targetId);
    if (!instance.approverIds.includes(user.id)) return failure("INSUFFICIENT_ACCESS_OR_READONLY", "you are not an approver of this work item", instance.targetId);
    instance.status = next;
    instance.comments.push(action.comments);
    return { success: true, actorIds: [user.id], entityId: instance.targetId, instanceId: instance.instanceId, instanceStatus: next, newWorkitemIds: [] };
  }
  return failure("INVALID_OPERATION", "send a ProcessSubmitRequest or a ProcessWorkitemRequest (xsi:type)");
}

export function processActions(state: PartnerState, user: UserState, actions: readonly AnyProcessRequest[]): ProcessResult[] {
  return actions.map((a) => one(state, user, a));
}
