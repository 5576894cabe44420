"""What can go wrong, as exceptions both front doors turn into sentences.

PersonaKitError        a problem the owner or an assistant can act on; the message says what to do
 ├── VaultBusy         another process held the vault lock too long
 ├── UnknownMemory     no memory has that id (or prefix), or more than one does
 └── ReadOnlyVault     the vault cannot be written (read-only file system, full disk, permissions)
"""


class PersonaKitError(Exception):
    """A problem the owner or an assistant can act on."""


class VaultBusy(PersonaKitError):
    """Another PersonaKit process held the vault lock for too long."""


class UnknownMemory(PersonaKitError):
    """No memory has that id, or a prefix names more than one."""


class ReadOnlyVault(PersonaKitError):
    """The vault cannot be written."""
