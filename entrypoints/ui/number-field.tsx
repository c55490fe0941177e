/** A labelled number input that reports finite values only. */

export function NumberField(props: {
  label: string;
  value: number;
  min?: number;
  max?: number;
  step?: number | 'any';
  testid: string;
  title?: string;
  onInput(v: number): void;
}) {
  return (
    <label class="field" title={props.title}>
      <span>{props.label}</span>
      <input
        type="number"
        inputMode="numeric"
        value={props.value}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        data-testid={props.testid}
        onInput={(e) => {
          const v = Number(e.currentTarget.value);
          if (Number.isFinite(v)) props.onInput(v);
        }}
      />
    </label>
  );
}
