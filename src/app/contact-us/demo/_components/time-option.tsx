import type { ChangeEventHandler } from 'react';

/**
 * One offered time as a radio button in its bordered label, posted as
 * `start` (the ISO instant). Shared by the plain booking form and the picker; `checked` and
 * `onChange` make it controlled (the picker), without them it is a plain form control
 * (`defaultChecked`: ticked at first).
 */
export function TimeOption({
  start,
  label,
  checked,
  defaultChecked,
  onChange,
}: {
  start: string;
  label: string;
  checked?: boolean;
  defaultChecked?: boolean;
  onChange?: ChangeEventHandler<HTMLInputElement>;
}) {
  return (
    <label className="flex min-h-6 cursor-pointer items-center gap-1 rounded border border-slate-300 px-1 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
      <input
        type="radio"
        name="start"
        value={start}
        required
        checked={checked}
        defaultChecked={defaultChecked}
        onChange={onChange}
        className="accent-brand-700"
      />
      <span>{label}</span>
    </label>
  );
}
