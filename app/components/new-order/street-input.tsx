"use client";
// A street field with suggestions from the city's streets and public places
// (searchStreets): type the beginning of any word, ↑↓ to choose, Enter or
// Tab to take it, Esc to close.
import { useId, useRef, useState, type Ref } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useDebounced } from "../use-debounced";

export interface StreetPick {
  fullName: string;
  kind: "STREET" | "PUBLIC_PLACE";
  lat: number;
  lon: number;
}

export function StreetInput({
  label,
  name,
  value,
  onChange,
  onPick,
  inputRef,
  required,
  invalid,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onPick: (street: StreetPick) => void;
  inputRef?: Ref<HTMLInputElement>;
  required?: boolean;
  invalid?: boolean;
}) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(0);
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const q = useDebounced(value.trim(), 120);
  const streets = useQuery(
    trpc.reference.streets.queryOptions({ q: q || "-", limit: 8 }, { enabled: open && q.length >= 2, placeholderData: keepPreviousData, staleTime: 60_000 }),
  );
  const list = open && q.length >= 2 ? (streets.data ?? []) : [];
  // The list may still be an earlier text's (kept while the new one loads, or the debounce not yet run):
  // Enter and Tab take a suggestion only from the list of what is typed now, else a fast typist's
  // "ул. Ленина" and Tab would become the street the list showed a moment ago.
  const fresh = q === value.trim() && !streets.isPlaceholderData;
  const exact = list.some((s) => s.fullName.toLowerCase() === value.trim().toLowerCase());
  const showList = open && value.trim().length >= 2 && !(exact && list.length === 1);

  const pick = (s: StreetPick) => {
    onChange(s.fullName);
    onPick(s);
    setOpen(false);
  };

  return (
    <div className="combo">
      <label className="field">
        <span>
          {label}
          {required ? <span className="req"> *</span> : null}
        </span>
        <input
          ref={inputRef}
          name={name}
          value={value}
          autoComplete="off"
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-invalid={invalid || undefined}
          aria-activedescendant={showList && list[highlight] ? `${listId}-${highlight}` : undefined}
          onChange={(e) => {
            onChange(e.target.value);
            setOpen(true);
            setHighlight(0);
          }}
          onFocus={() => {
            // Back before the blur's close ran (Tab out and in again): the list stays open.
            clearTimeout(closing.current);
            setOpen(true);
          }}
          // Closed a moment after the blur, so that a click on a suggestion (mousedown) still lands.
          onBlur={() => {
            closing.current = setTimeout(() => setOpen(false), 120);
          }}
          onKeyDown={(e) => {
            if (!showList) return;
            const current = fresh ? list[highlight] : undefined;
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setHighlight((h) => Math.min(list.length - 1, h + 1));
            } else if (e.key === "ArrowUp") {
              e.preventDefault();
              setHighlight((h) => Math.max(0, h - 1));
            } else if (e.key === "Enter" && current && current.fullName !== value) {
              e.preventDefault();
              e.stopPropagation();
              pick(current);
            } else if (e.key === "Tab" && current && current.fullName !== value && !e.shiftKey) {
              pick(current);
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              setOpen(false);
            }
          }}
        />
      </label>
      {showList ? (
        <ul className="combo-list" id={listId} role="listbox" aria-label={label} aria-busy={!fresh || undefined}>
          {list.length === 0 && !streets.isFetching ? <li className="combo-empty">{t.newOrder.noStreets}</li> : null}
          {list.map((s, i) => (
            <li
              key={s.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === highlight}
              className={i === highlight ? "active" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(s);
              }}
              onMouseEnter={() => setHighlight(i)}
            >
              <span>{s.fullName}</span>
              {s.kind === "PUBLIC_PLACE" ? <span className="pill">{t.newOrder.publicPlace}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
