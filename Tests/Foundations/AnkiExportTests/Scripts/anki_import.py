#!/usr/bin/env python3
"""Import an .apkg or a plain-text (CSV) file with the official `anki` package and print what
Anki made of it as JSON. The Swift tests use this as their oracle.

    anki_import.py apkg --collection DIR/collection.anki2 PACKAGE.apkg
    anki_import.py csv  --collection DIR/collection.anki2 NOTES.txt

The collection is created if missing, so calling twice with the same path imports into the same
collection (that is how re-import behaviour is checked). Output keys:
  log            counts from Anki's import log (new, updated, duplicate, conflicting, ...)
  note_count, card_count, notes (guid, fields, tags, notetype), cards, decks, notetypes
  media_files    files present in the collection's media folder
  media_check    Anki's media check: files referenced but missing, files unused
  integrity      Anki's "Check Database" result, run last
  csv_metadata   (csv only) how Anki read the header lines
"""

import argparse
import json
import os
import sys

from anki.collection import (
    Collection,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
    ImportCsvRequest,
)
from anki import import_export_pb2

UPDATE_CONDITIONS = {
    "if-newer": import_export_pb2.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER,
    "always": import_export_pb2.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_ALWAYS,
    "never": import_export_pb2.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_NEVER,
}

LOG_KINDS = [
    "new",
    "updated",
    "duplicate",
    "conflicting",
    "first_field_match",
    "missing_notetype",
    "missing_deck",
    "empty_first_field",
]


def log_summary(log):
    out = {kind: len(getattr(log, kind)) for kind in LOG_KINDS}
    out["found_notes"] = log.found_notes
    return out


def import_apkg(col, path, args):
    options = ImportAnkiPackageOptions(
        # Anki's import dialog defaults.
        merge_notetypes=False,
        update_notes=UPDATE_CONDITIONS[args.update_notes],
        update_notetypes=UPDATE_CONDITIONS[args.update_notes],
        with_scheduling=False,
        with_deck_configs=False,
    )
    result = col.import_anki_package(
        ImportAnkiPackageRequest(package_path=path, options=options)
    )
    return {"log": log_summary(result.log)}


def import_csv(col, path, args):
    metadata = col.get_csv_metadata(path, None)
    notetype = col.models.get(metadata.global_notetype.id) if metadata.HasField("global_notetype") else None
    described = {
        "delimiter": import_export_pb2.CsvMetadata.Delimiter.Name(metadata.delimiter),
        "is_html": metadata.is_html,
        "column_labels": list(metadata.column_labels),
        "guid_column": metadata.guid_column,
        "tags_column": metadata.tags_column,
        "deck_id": metadata.deck_id if metadata.HasField("deck_id") else None,
        "deck_name": metadata.deck_name if metadata.HasField("deck_name") else None,
        "notetype": notetype["name"] if notetype else None,
        "field_columns": list(metadata.global_notetype.field_columns)
        if metadata.HasField("global_notetype")
        else [],
    }
    result = col.import_csv(ImportCsvRequest(path=path, metadata=metadata))
    return {"log": log_summary(result.log), "csv_metadata": described}


def describe(col):
    notes = []
    for nid in sorted(col.find_notes("")):
        note = col.get_note(nid)
        # What Anki itself stored, to compare with the csum/sfld the package carried.
        csum, sfld = col.db.first("select csum, sfld from notes where id = ?", nid)
        notes.append(
            {
                "guid": note.guid,
                "fields": list(note.fields),
                "tags": list(note.tags),
                "notetype": note.note_type()["name"],
                "mtime": note.mod,
                "csum": csum,
                "sfld": str(sfld),
            }
        )
    guid_by_nid = {nid: col.get_note(nid).guid for nid in col.find_notes("")}
    cards = []
    for cid in sorted(col.find_cards("")):
        card = col.get_card(cid)
        cards.append(
            {
                "guid": guid_by_nid[card.nid],
                "ord": card.ord,
                "deck": col.decks.name(card.did),
                "type": card.type,
                "queue": card.queue,
                "due": card.due,
            }
        )
    media_check = col.media.check()
    return {
        "note_count": col.note_count(),
        "card_count": col.card_count(),
        "notes": notes,
        "cards": cards,
        "decks": sorted(d.name for d in col.decks.all_names_and_ids()),
        "notetypes": [
            {"name": m["name"], "fields": [f["name"] for f in m["flds"]]}
            for m in sorted(col.models.all(), key=lambda m: m["name"])
        ],
        "media_files": sorted(os.listdir(col.media.dir())),
        "media_check": {
            "missing": sorted(media_check.missing),
            "unused": sorted(media_check.unused),
        },
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["apkg", "csv"])
    parser.add_argument("file")
    parser.add_argument("--collection", required=True)
    parser.add_argument("--update-notes", choices=sorted(UPDATE_CONDITIONS), default="if-newer")
    args = parser.parse_args()

    col = Collection(args.collection)
    try:
        path = os.path.abspath(args.file)
        out = import_apkg(col, path, args) if args.kind == "apkg" else import_csv(col, path, args)
        out.update(describe(col))
        problems, ok = col.fix_integrity()
        # The last line of fix_integrity's text is always "database rebuilt"; the rest are problems.
        out["integrity"] = {"ok": ok, "problems": problems.splitlines()[:-1]}
    finally:
        col.close()
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
