"use client";
// The dispatcher's actions on an order (move, approve, reject, edit) with
// optimistic updates of the board, the moderation queue and the order panel,
// rolled back with a visible error when the server refuses.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { updateBoardRow, type BoardData, type OrderDetails } from "./types";

type Snapshot = Array<[QueryKey, unknown]>;

export function useOrderActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { t, stateTitle } = useI18n();

  const boardKey = trpc.orders.board.pathKey();
  const moderationKey = trpc.orders.moderation.queryKey();

  async function optimistic(orderId: number, to: string | null): Promise<Snapshot> {
    const detailKey = trpc.orders.get.queryKey({ id: orderId });
    await Promise.all([
      queryClient.cancelQueries({ queryKey: boardKey }),
      queryClient.cancelQueries({ queryKey: moderationKey }),
      queryClient.cancelQueries({ queryKey: detailKey }),
    ]);
    const snapshot: Snapshot = [
      ...queryClient.getQueriesData({ queryKey: boardKey }),
      [moderationKey, queryClient.getQueryData(moderationKey)],
      [detailKey, queryClient.getQueryData(detailKey)],
    ];
    if (to) {
      queryClient.setQueriesData<BoardData>({ queryKey: boardKey }, (old) => updateBoardRow(old, orderId, (row) => ({ ...row, state: to })));
      queryClient.setQueryData(detailKey, (old: OrderDetails | undefined) => (old ? { ...old, state: to, nextStates: [] } : old));
      queryClient.setQueryData(moderationKey, (old) =>
        old ? { items: old.items.filter((o) => o.id !== orderId), total: Math.max(0, old.total - (old.items.some((o) => o.id === orderId) ? 1 : 0)) } : old,
      );
    }
    return snapshot;
  }

  function rollback(snapshot: Snapshot | undefined): void {
    for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
  }

  function settle(orderId: number): void {
    void queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ id: orderId }) });
    void queryClient.invalidateQueries({ queryKey: moderationKey });
    void queryClient.invalidateQueries({ queryKey: trpc.orders.counts.queryKey() });
  }

  const onError = (error: unknown, vars: { orderId: number }, snapshot: Snapshot | undefined) => {
    rollback(snapshot);
    const info = errorInfo(error, t);
    toast.error(info.message, info.code === "CONFLICT" ? { label: t.common.reload, run: () => settle(vars.orderId) } : undefined);
  };

  const move = useMutation(
    trpc.orders.move.mutationOptions({
      meta: { inlineError: true },
      onMutate: (vars) => optimistic(vars.orderId, vars.to),
      onError,
      onSuccess: (moved) => toast.success(t.order.moved(moved.id, stateTitle(moved.to))),
      onSettled: (_d, _e, vars) => settle(vars.orderId),
    }),
  );

  const approve = useMutation(
    trpc.orders.approve.mutationOptions({
      meta: { inlineError: true },
      onMutate: (vars) => optimistic(vars.orderId, vars.driverId ? "SENT_TO_DRIVER" : "FREE"),
      onError,
      onSuccess: (moved) =>
        toast.success(moved.driverCallSign ? t.moderation.sent(moved.id, moved.driverCallSign) : t.moderation.approved(moved.id)),
      onSettled: (_d, _e, vars) => settle(vars.orderId),
    }),
  );

  const reject = useMutation(
    trpc.orders.reject.mutationOptions({
      meta: { inlineError: true },
      onMutate: (vars) => optimistic(vars.orderId, "DONE_OPERATOR_REJECTED"),
      onError,
      onSuccess: (moved) => toast.success(t.moderation.rejected(moved.id)),
      onSettled: (_d, _e, vars) => settle(vars.orderId),
    }),
  );

  return { move, approve, reject };
}
