/**
 * Risk–coverage of a run: its answers sorted by the engine's confidence, best first; at each cut, the share
 * of all questions answered (coverage) and the share of those answers that are right (accuracy). A
 * calibrated engine's accuracy falls as coverage grows. Also the confidence threshold that reaches a target
 * refusal precision: refusing every answer below it, at least that share of the refused answers were to
 * questions that expect a refusal.
 */

export interface ConfidencePoint {
  /** The engine's confidence, or null when it gave none (refusals, engines that do not calibrate). */
  confidence: number | null;
  /** The run answered (not refused). */
  answered: boolean;
  /** The answer is right. */
  correct: boolean;
  /** The question expects a refusal. */
  unanswerable: boolean;
}

export interface RiskPoint {
  /** Answers with at least this confidence are kept. */
  threshold: number;
  coverage: number;
  accuracy: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** One point per distinct confidence of the answered questions, from the highest threshold to the lowest. */
export function riskCoverage(points: readonly ConfidencePoint[]): RiskPoint[] {
  const total = points.length;
  const answered = points
    .filter((p): p is ConfidencePoint & { confidence: number } => p.answered && p.confidence !== null)
    .sort((a, b) => b.confidence - a.confidence);
  const out: RiskPoint[] = [];
  let right = 0;
  for (let i = 0; i < answered.length; i++) {
    if (answered[i]!.correct) right++;
    const next = answered[i + 1];
    if (next && next.confidence === answered[i]!.confidence) continue;
    out.push({
      threshold: answered[i]!.confidence,
      coverage: round((i + 1) / total),
      accuracy: round(right / (i + 1)),
    });
  }
  return out;
}

export interface Calibration {
  target: number;
  /** Lowest confidence kept; `null` when no cut reaches the target. */
  threshold: number | null;
  /** Refusal precision at that threshold (share of the answers it would refuse whose question expects a refusal). */
  precision: number | null;
  /** Answers it would refuse. */
  refused: number;
}

/**
 * The highest threshold whose refusals (answers below it) hit questions that expect a refusal at least
 * `target` of the time: refuse as much as the confidence can justify, no more. Thresholds lie halfway
 * between neighbouring confidences. Run with `--min-confidence 0` so that no answer was refused by the
 * threshold being calibrated.
 */
export function calibrateThreshold(points: readonly ConfidencePoint[], target: number): Calibration {
  const answered = points
    .filter((p): p is ConfidencePoint & { confidence: number } => p.answered && p.confidence !== null)
    .sort((a, b) => a.confidence - b.confidence);
  let best: Calibration = { target, threshold: null, precision: null, refused: 0 };
  let hits = 0;
  for (let i = 0; i < answered.length; i++) {
    if (answered[i]!.unanswerable) hits++;
    const next = answered[i + 1];
    if (next && next.confidence === answered[i]!.confidence) continue;
    const precision = hits / (i + 1);
    if (precision >= target) {
      const threshold = next ? (answered[i]!.confidence + next.confidence) / 2 : answered[i]!.confidence + 1e-3;
      best = { target, threshold: round(threshold), precision: round(precision), refused: i + 1 };
    }
  }
  return best;
}

/** Refusal precision the report calibrates the confidence threshold for. */
export const TARGET_REFUSAL_PRECISION = 0.8;

/** The confidence points of a run's results. */
export function confidencePoints(
  results: readonly {
    answer?: { status: string } | null;
    metrics: { confidence: number | null; answer_correct: number; unanswerable_refused: number | null };
  }[],
): ConfidencePoint[] {
  return results.map((r) => ({
    confidence: r.metrics.confidence,
    answered: r.answer != null && r.answer.status !== "refused",
    correct: r.metrics.answer_correct === 1,
    unanswerable: r.metrics.unanswerable_refused !== null,
  }));
}
