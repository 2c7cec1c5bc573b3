#!/usr/bin/env python
import sizes


def pooled(row):
    window = sizes.WINDOW
    return [sum(row[i:i + window]) for i in range(0, len(row) - window + 1, window)]
