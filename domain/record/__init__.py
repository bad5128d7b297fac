"""The recorded-game format, versions 2 and 1 (like PGN for chess): models, reader, writer and
verification.

Kept apart from the game model: the record knows headers and facts, not rules. See
docs/record-format.md and ``record.schema.json`` beside this module.
"""

from domain.record.model import FORMAT_ID, FORMAT_VERSION, Record
from domain.record.reader import read_record, read_record_file
from domain.record.verify import VerifyReport, verify_record
from domain.record.writer import build_record, write_record

__all__ = [
    "FORMAT_ID",
    "FORMAT_VERSION",
    "Record",
    "VerifyReport",
    "build_record",
    "read_record",
    "read_record_file",
    "verify_record",
    "write_record",
]
