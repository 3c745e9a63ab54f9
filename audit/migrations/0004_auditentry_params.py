"""An entry's parameters: what its action's code needs besides before and after.

A nullable column without a default is added in place (ALTER TABLE ... ADD COLUMN) on PostgreSQL and on
SQLite alike: no row is rewritten, so the append-only triggers of 0002 and 0003 stay as they are."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_cannot_be_emptied")]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="params",
            field=models.JSONField(blank=True, null=True, verbose_name="parameters"),
        ),
    ]
