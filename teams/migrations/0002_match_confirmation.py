"""Each captain's confirmation of a match's result, and the side that disputes it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("teams", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="home_confirmed",
            field=models.BooleanField(default=False, verbose_name="confirmed by the home captain"),
        ),
        migrations.AddField(
            model_name="match",
            name="away_confirmed",
            field=models.BooleanField(default=False, verbose_name="confirmed by the away captain"),
        ),
        migrations.AddField(
            model_name="match",
            name="disputed",
            field=models.CharField(
                blank=True,
                choices=[("home", "home team"), ("away", "away team")],
                default="",
                max_length=4,
                verbose_name="disputed by",
            ),
        ),
    ]
