"""What only the owner does: decisions, review, doctor, the audit trail. No model reaches this package."""
