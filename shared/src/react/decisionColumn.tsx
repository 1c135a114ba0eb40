import { Button, Space, type TableColumnType } from 'antd';

/** One of a row's two decisions: the value sent, the button's text and its name for the row. */
export interface DecisionChoice<Row, Decision extends string> {
  decision: Decision;
  text: string;
  ariaLabel: (row: Row) => string;
  /** A red button: the decision takes something away. */
  danger?: boolean;
}

interface Decisions<Row, Decision extends string> {
  /** The row's current decision (or its waiting state). */
  decided: (row: Row) => string;
  busy: (row: Row) => boolean;
  decide: (row: Row, decision: Decision) => void;
  first: DecisionChoice<Row, Decision>;
  second: DecisionChoice<Row, Decision>;
}

function DecisionButtons<Row, Decision extends string>({ row, decided, busy, decide, first, second }: Decisions<Row, Decision> & { row: Row }) {
  const button = (choice: DecisionChoice<Row, Decision>, primary: boolean) => (
    <Button
      size="small"
      type={primary ? 'primary' : undefined}
      danger={choice.danger}
      disabled={decided(row) === choice.decision}
      loading={primary ? busy(row) : undefined}
      onClick={() => decide(row, choice.decision)}
      aria-label={choice.ariaLabel(row)}
    >
      {choice.text}
    </Button>
  );
  return (
    <Space wrap>
      {button(first, true)}
      {button(second, false)}
    </Space>
  );
}

/**
 * The Decision column of a dashboard table whose rows wait for the organiser (a reported photo:
 * confirm or dismiss; a photographer: approve or reject): the first decision is the primary button
 * and spins while the row's call runs, and the decision a row already has is disabled, so a decision
 * can be changed later but not made twice.
 */
export function decisionColumn<Row, Decision extends string>(decisions: Decisions<Row, Decision>): TableColumnType<Row> {
  return { title: 'Decision', key: 'decide', render: (_v, row: Row) => <DecisionButtons row={row} {...decisions} /> };
}
