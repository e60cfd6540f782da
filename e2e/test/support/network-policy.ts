import type { K8sObject } from './manifests.js';

/**
 * What Kubernetes NetworkPolicies (ingress) let through, as a CNI that enforces them decides: a pod
 * selected by no policy admits everyone; a selected pod admits a connection some rule of a selecting
 * policy matches by peer and port. Pods are named by their labels; `namespace: 'other'` is a pod of
 * another namespace (only a namespaceSelector matches it).
 */
export interface Pod {
  labels: Record<string, string>;
  namespace?: 'same' | 'other';
  /** Named container ports of a target pod, to resolve a rule's named port. */
  ports?: Record<string, number>;
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}
interface Rule {
  from?: Peer[];
  ports?: { port?: number | string; protocol?: string }[];
}

function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return values.includes(labels[key] ?? '\0');
    if (operator === 'NotIn') return !values.includes(labels[key] ?? '\0');
    return operator === 'Exists' ? key in labels : !(key in labels);
  });
  return byLabel && byExpression;
}

/** Namespaces carry no labels in this model: only an empty namespaceSelector matches (every namespace). */
function peerMatches(peer: Peer, source: Pod): boolean {
  if (peer.ipBlock) return false;
  const inNamespace = peer.namespaceSelector === undefined ? (source.namespace ?? 'same') === 'same' : selects(peer.namespaceSelector, {});
  return inNamespace && (peer.podSelector === undefined || selects(peer.podSelector, source.labels));
}

function portMatches(rule: Rule, target: Pod, port: number): boolean {
  if (rule.ports === undefined || rule.ports.length === 0) return true;
  return rule.ports.some((entry) => entry.port === undefined || entry.port === port || (typeof entry.port === 'string' && target.ports?.[entry.port] === port));
}

export function policiesSelecting(objects: K8sObject[], target: Pod): K8sObject[] {
  return objects.filter((object) => object.kind === 'NetworkPolicy' && selects(object.spec.podSelector as LabelSelector, target.labels));
}

export function admits(objects: K8sObject[], source: Pod, target: Pod, port: number): boolean {
  const policies = policiesSelecting(objects, target).filter((policy) => (policy.spec.policyTypes as string[] | undefined)?.includes('Ingress') ?? true);
  if (policies.length === 0) return true;
  return policies.some((policy) =>
    ((policy.spec.ingress ?? []) as Rule[]).some((rule) => (rule.from === undefined || rule.from.some((peer) => peerMatches(peer, source))) && portMatches(rule, target, port)),
  );
}
